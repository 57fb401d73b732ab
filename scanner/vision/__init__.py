"""Frame → corner indices → classified cards → physical cards.

``Recogniser.load()`` builds the ONNX sessions once (the locator, the classifier and, where the
model folder holds one, the verifier); ``Recogniser.read(frame)`` gives a :class:`Reading`. Pre-
and post-processing are pure functions in ``preprocess``, ``scale`` (a frame of small indices
read scaled up), ``strips`` (a large frame located a strip at a time), ``turns`` (the frame read
four ways, a quarter turn apart), ``decode``, ``closer`` (small marks read "not an index"
located again scaled up), ``verifier``, ``cards``, ``grouping`` (cards into melds by layout) and
``melds`` (a meld's cards read knowing they share a rank), tested without any model.
"""

from scanner.vision.cards import CardReading
from scanner.vision.errors import ImageError, RecogniserError, VisionError
from scanner.vision.recogniser import Reading, Recogniser

__all__ = ["CardReading", "ImageError", "Reading", "Recogniser", "RecogniserError", "VisionError"]
