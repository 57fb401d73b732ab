"""Frame sources: the Raspberry Pi camera, a USB webcam or video file, image files, or
rendered tables, all behind one small interface.

``open_source(spec)`` builds the source a ``--camera`` value names (``SOURCE_HELP`` lists
them; ``default_spec()`` picks one); ``source.capture()`` gives a :class:`Frame` with an RGB
image; ``ReliableSource`` reopens a source that stops answering; ``check_quality(image)``
says whether a frame is too dark, blurred or blank to read. The simulated camera
(``open_source("synthetic:SEED", layout=...)``) shows one side's table by default; its
``advance(layout=...)`` lays the next table, as a side's melds, a hand's leftovers or a busy
training table.
"""

from scanner.camera.errors import BadSpecError, CameraError
from scanner.camera.quality import QualityProblem, check_quality
from scanner.camera.reliable import ReliableSource
from scanner.camera.source import Frame, FrameSource, SourceBase
from scanner.camera.specs import SOURCE_HELP, default_spec, open_source, parse_spec
from scanner.camera.synthetic_source import SyntheticSource

__all__ = [
    "SOURCE_HELP",
    "BadSpecError",
    "CameraError",
    "Frame",
    "FrameSource",
    "QualityProblem",
    "ReliableSource",
    "SourceBase",
    "SyntheticSource",
    "check_quality",
    "default_spec",
    "open_source",
    "parse_spec",
]
