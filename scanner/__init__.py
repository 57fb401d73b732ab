"""Everything around the engine: camera sources, the vision pipeline, the service, the web page,
storage and the command line."""
