"""The card recogniser: an index locator and an index classifier, trained on synthetic scenes
and shipped as ONNX files. The contract between training and inference lives in the runtime:
``scanner/vision/contract.py``, which training imports."""
