"""Frame → corner indices → classified cards → physical cards.

``Recogniser.load()`` loads the networks once; ``Recogniser.read(frame)`` reads a frame through
named stages, at each scale the size policy proposes, and gives a :class:`Reading`:

    size → locate → classify → recheck → verify → pair → faces → melds → tidy

Every optional rule is a switch of :class:`ReadOptions` (``handfoot eval --without RULES``).

The reading:
- ``recogniser``: ``Recogniser``: the stages in order, at each scale; ``timing_ms`` by stage
- ``stages/``: one module per stage (``size``, ``locate``, ``classify``, ``recheck``,
  ``verify``, ``pair``, ``faces``, ``melds``, ``tidy``) and ``records`` (the per-frame
  ``FrameContext`` and the ``Work`` passed between stages)
- ``options``: ``ReadOptions``, every optional stage and rule by name
- ``networks``: the ONNX sessions, int8 twins, batching and warm-up
- ``reading``: ``Reading``, what one frame showed
- ``contract``: the classes, crop geometry and normalisation the networks were trained to
  (``recogniser.json``); training imports it from here
- ``errors``: every error the vision code raises

The rules the stages apply (pure functions, tested without any model):
- ``preprocess``: frames and crops as the networks take them
- ``strips``: a large frame located a strip at a time
- ``turns``: the locator read four times, a quarter turn apart
- ``decode``: the locator's heads → index candidates
- ``faint``: which faint marks are read in full, and which count
- ``decks``: readings held to the deck the table is played with
- ``suit_below``: a bare number read again where its suit sign would lie
- ``wider``: a small index read again with the card beside it
- ``ink_colour``: a reading held to red where its ink is clearly redder than its paper
- ``profile``: the classifier corrected for a table's own deck, taught (``scanner/decks``)
- ``refine``: where a doubtful mark's index truly lies
- ``closer``: small marks read "not an index" located again scaled up
- ``unread``: two unread corners of one card that agree on it
- ``verifier``: which readings are marks on the table, not cards
- ``cards``: classified indices → physical cards, each once
- ``faces``: a card's face read where nothing lies on it
- ``grouping``: cards into melds, red threes and loose cards by layout
- ``melds``: a meld's cards read knowing they share a rank
- ``gaps``: where a fan's unread cards should lie
- ``proportion``: a card far smaller than the sure cards around it is no card
- ``scale``, ``large_frame``, ``second_look``: the scales a frame is read at
- ``dark_cards``: cards printed light on dark stock, read in the frame's negative
- ``legibility``: whether a frame's cards are large enough to read well, in players' words

Around it:
- ``images``: image files read and written as RGB frames
- ``annotate``: a frame with what was read drawn on it
"""

from scanner.vision.cards import CardReading
from scanner.vision.errors import ImageError, RecogniserError, VisionError
from scanner.vision.options import ReadOptions
from scanner.vision.reading import Reading
from scanner.vision.recogniser import Recogniser

__all__ = [
    "CardReading",
    "ImageError",
    "ReadOptions",
    "Reading",
    "Recogniser",
    "RecogniserError",
    "VisionError",
]
