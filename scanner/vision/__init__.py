"""Frame → corner indices → classified cards → physical cards.

``Recogniser.load()`` builds the ONNX sessions once (the locator, the classifier and, where the
model folder holds them, the verifier and the refiner); ``Recogniser.read(frame)`` gives a
:class:`Reading`. Pre- and post-processing are pure functions in ``preprocess``, ``scale`` (a
frame of small indices read scaled up), ``strips`` (a large frame located a strip at a time),
``turns`` (the frame read four ways, a quarter turn apart), ``decode``, ``suit_below`` (a bare
number read again where a standard card's suit sign would lie), ``refine`` (a doubtful mark's
index looked for around it), ``closer`` (small marks read "not an index" located again scaled
up), ``verifier``, ``cards``, ``grouping`` (cards into melds by layout), ``melds`` (a meld's
cards read knowing they share a rank), ``gaps`` (a fan's unread cards looked for between its
read ones) and ``legibility`` (cards too small to read well, said so), tested without any
model.
"""

from scanner.vision.cards import CardReading
from scanner.vision.errors import ImageError, RecogniserError, VisionError
from scanner.vision.recogniser import Reading, Recogniser

__all__ = ["CardReading", "ImageError", "Reading", "Recogniser", "RecogniserError", "VisionError"]
