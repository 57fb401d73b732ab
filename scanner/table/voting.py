"""Several frames of one table → one reading per card, by vote (pure functions).

The camera and the cards stay put for the second a scan takes, so the same physical card lies
in the same place in every frame; what changes is sensor noise, a flicker of glare, a hand
moving away. A card is matched across frames by where it lies, its code is the one the frames
agree on (each frame's vote weighted by the classifier's confidence), and its confidence is
that agreement spread over *all* the frames: a card seen in one frame of three, or read two
ways, ends below the threshold and is flagged ``check``, never silently guessed. So does a
card the verifier doubted in every frame that read it so (``CardReading.doubted``), or whose
corners read as two sure codes in every such frame (``CardReading.disputed``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scanner.vision.cards import CardReading
from scanner.vision.decode import angle_gap

SAME_PLACE = 0.35  # card centres within this share of the card's short side: the same card
SAME_ANGLE = 25.0  # … lying within this many degrees (either way up: 0° or 180° apart)
CHECK_BELOW = 0.5  # a voted confidence below this is a "check" card


@dataclass(frozen=True)
class VotedCard:
    """One physical card after the vote: the reading shown (the surest frame's, with the
    voted code and confidence), the frames that saw it, and every code they read."""

    card: CardReading
    seen: int  # frames in which the card was found
    frames: int  # frames voted over
    votes: dict[str, float]  # code → summed confidence over the frames

    @property
    def unanimous(self) -> bool:
        return self.seen == self.frames and len(self.votes) == 1


@dataclass(frozen=True)
class Vote:
    """The table after the vote: the cards kept, and those seen too rarely to count (one frame
    of three, say: a passing reflection, a hand at the edge), kept for diagnosis only."""

    cards: tuple[VotedCard, ...]
    dropped: tuple[VotedCard, ...]
    frames: int

    @property
    def readings(self) -> tuple[CardReading, ...]:
        return tuple(voted.card for voted in self.cards)


def centre(card: CardReading) -> tuple[float, float]:
    xs, ys = zip(*card.polygon, strict=True)
    return sum(xs) / 4, sum(ys) / 4


def short_side(card: CardReading) -> float:
    (x0, y0), (x1, y1), (x2, y2) = card.polygon[:3]
    return max(1.0, min(math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)))


def index_centre(card: CardReading) -> tuple[float, float]:
    x0, y0, x1, y1 = card.index_box
    return (x0 + x1) / 2, (y0 + y1) / 2


def match_distance(first: CardReading, second: CardReading) -> float | None:
    """How far apart two readings lie in card short sides, or None when they cannot be the
    same card (too far apart, or turned differently).

    Read from the same corner, the index centres agree to a pixel or two (the camera has not
    moved), which keeps the cards of a tight fan apart; read from opposite corners (a half-turn
    apart), only the estimated card centres can be compared."""
    gap = angle_gap(first.angle, second.angle)
    short = min(short_side(first), short_side(second))
    (ax, ay), (bx, by) = centre(first), centre(second)
    distance = math.hypot(ax - bx, ay - by) / short
    if gap <= SAME_ANGLE:
        (ix, iy), (jx, jy) = index_centre(first), index_centre(second)
        distance = min(distance, math.hypot(ix - jx, iy - jy) / short)
    elif 180.0 - gap > SAME_ANGLE:
        return None
    return distance if distance <= SAME_PLACE else None


def vote(frames: Sequence[Sequence[CardReading]], check_below: float = CHECK_BELOW) -> Vote:
    """Merge the cards read in each frame into one reading per physical card.

    A card counts when more than half the frames saw it; its code is the one with the largest
    summed confidence; its confidence is that sum divided by the number of frames, so missing
    frames and disagreeing frames both lower it. With one frame this is the frame itself.
    """
    count = len(frames)
    if count == 0:
        return Vote((), (), 0)
    tracks = _match(frames)
    kept, dropped = [], []
    for track in tracks:
        voted = _tally(track, count, check_below)
        (kept if 2 * voted.seen > count else dropped).append(voted)
    order = lambda voted: (round(centre(voted.card)[1]), centre(voted.card)[0])  # noqa: E731
    return Vote(tuple(sorted(kept, key=order)), tuple(sorted(dropped, key=order)), count)


def _match(frames: Sequence[Sequence[CardReading]]) -> list[list[CardReading]]:
    """Tracks of readings, at most one per frame, joined nearest pair first."""
    tracks: list[list[CardReading]] = []
    for readings in frames:
        pairs = []
        for n, reading in enumerate(readings):
            for t, track in enumerate(tracks):
                distance = match_distance(track[0], reading)
                if distance is not None:
                    pairs.append((distance, n, t))
        pairs.sort()
        used_readings, used_tracks, joins = set(), set(), {}
        for _, n, t in pairs:
            if n not in used_readings and t not in used_tracks:
                used_readings.add(n)
                used_tracks.add(t)
                joins[n] = t
        for n, reading in enumerate(readings):
            if n in joins:
                tracks[joins[n]].append(reading)
            else:
                tracks.append([reading])
    return tracks


def _tally(track: list[CardReading], frames: int, check_below: float) -> VotedCard:
    votes: dict[str, float] = defaultdict(float)
    for reading in track:
        votes[reading.code] += reading.confidence
    # ties go to the code read first in the alphabet, so the result never depends on order
    code = min(votes, key=lambda c: (-votes[c], c))
    confidence = votes[code] / frames
    shown = max((r for r in track if r.code == code), key=lambda r: r.confidence)
    corners = max(reading.corners for reading in track)  # both corners seen in any frame
    doubted = all(reading.doubted for reading in track if reading.code == code)
    disputed = all(reading.disputed for reading in track if reading.code == code)
    # the table's deck profile read it as another card than the classifier, in every frame
    contested = all(reading.contested for reading in track if reading.code == code)
    check = confidence < check_below or doubted or disputed or contested
    card = replace(
        shown,
        confidence=confidence,
        check=check,
        corners=corners,
        doubted=doubted,
        disputed=disputed,
        contested=contested,
    )
    return VotedCard(card, len(track), frames, dict(sorted(votes.items())))
