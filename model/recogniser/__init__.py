"""The card recogniser: an index locator and an index classifier, trained on synthetic scenes
and shipped as ONNX files. ``spec`` is the contract between training and inference."""
