"""A deck profile on its own, with a stand-in classifier whose features say what a crop
shows: it corrects a card the classifier systematically reads as another, leaves "not an
index" and the cards it was never taught alone, and is the same every time it is fitted."""

import numpy as np
import pytest

from scanner.vision.profile import Profile, Taught, altered, learn, pooled

CLASSES = ["3B", "5B", "8B", "LADY", "none"]
SIZE = (48, 32)


def crop_of(kind: int, shade: int = 0) -> np.ndarray:
    """A crop whose pixels say which print it shows: a bar in a place of its own."""
    crop = np.full((*SIZE, 3), 235 - shade, np.uint8)
    crop[8 * kind + 1 : 8 * kind + 7, 4:28] = 20
    return crop


def stand_in(misread: dict[int, int]):
    """A classifier: feature maps [N, 6, 6, 4], one channel per height band of the crop, as
    dark as the band, and logits naming the print its bar stands for, but ``misread`` (print
    → class read)."""

    def read(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dark = (crops.mean(axis=3) < 128).astype(np.float64)  # [N, 48, 32]
        bands = dark.reshape(len(crops), 6, 8, 32).mean(axis=(2, 3))  # [N, 6]
        features = np.broadcast_to(bands[:, :, None, None], (len(crops), 6, 6, 4)) + 0.05
        kind = bands.argmax(axis=1)  # the band of the bar
        logits = np.full((len(crops), len(CLASSES)), -4.0)
        for n, k in enumerate(kind):
            logits[n, misread.get(int(k), int(k))] = 4.0
        return logits, features

    return read


def test_a_card_read_as_another_is_read_right_with_the_profile():
    """The deck's 3 prints like a 5 to the classifier; taught the 3, the profile reads it."""
    read = stand_in({0: 1})  # print 0 (the 3) read as class 1 (the 5)
    taught = [Taught("3B", crop_of(0)), Taught("5B", crop_of(1)), Taught("8B", crop_of(2))]
    profile = learn("blue", taught, CLASSES, read)
    logits, features = read(np.stack([crop_of(0, shade=15), crop_of(1, shade=15)]))
    assert [CLASSES[k] for k in logits.argmax(axis=1)] == ["5B", "5B"]
    adapted = profile.adapt(logits, features)
    assert [CLASSES[k] for k in adapted.argmax(axis=1)] == ["3B", "5B"]


def test_not_an_index_and_the_cards_never_taught_keep_their_probabilities():
    read = stand_in({0: 1})
    profile = learn("blue", [Taught("3B", crop_of(0)), Taught("5B", crop_of(1))], CLASSES, read)
    logits, features = read(np.stack([crop_of(3), crop_of(0)]))
    logits[1, CLASSES.index("none")] = 5.0  # the classifier calls this one no index
    before = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    after = np.exp(profile.adapt(logits, features))
    for kept in ("LADY", "none", "8B"):
        k = CLASSES.index(kept)
        assert after[:, k] == pytest.approx(before[:, k], rel=1e-6)
    assert after.sum(axis=1) == pytest.approx(1.0)


def test_a_profile_is_fitted_the_same_every_time_and_refuses_unknown_codes():
    read = stand_in({})
    taught = [Taught("3B", crop_of(0)), Taught("8B", crop_of(2)), Taught("none", crop_of(4))]
    first, second = (learn("d", taught, CLASSES, read) for _ in range(2))
    assert np.array_equal(first.weights, second.weights)
    assert first.codes == ("3B", "8B") and first.taught == 2
    with pytest.raises(ValueError, match="QZ"):
        learn("d", [Taught("QZ", crop_of(0))], CLASSES, read)


def test_one_card_taught_changes_nothing():
    read = stand_in({0: 1})
    profile = learn("d", [Taught("3B", crop_of(0))], CLASSES, read)
    logits, features = read(np.stack([crop_of(0)]))
    assert np.array_equal(profile.adapt(logits, features), logits)
    assert isinstance(profile, Profile)


def test_altered_copies_keep_the_crop_size_and_pooling_gives_unit_rows():
    copies = altered(crop_of(1))
    assert len(copies) == 8 and all(c.shape == (*SIZE, 3) and c.dtype == np.uint8 for c in copies)
    rows = pooled(np.random.default_rng(0).random((5, 96, 6, 4)))
    assert rows.shape == (5, 96 * 6) and np.linalg.norm(rows, axis=1) == pytest.approx(1.0)


def test_the_shipped_classifier_gives_its_features_and_the_same_logits_with_them():
    from scanner.vision.preprocess import normalise
    from scanner.vision.recogniser import Recogniser

    recogniser = Recogniser.load()
    nets, c = recogniser.networks, recogniser.contract
    crops = normalise(np.stack([crop_of(k) for k in range(3)]), c)
    logits, features = nets.classify_with_features(crops)
    assert nets.gives_features and features.ndim == 4 and len(features) == 3
    assert np.array_equal(logits, nets.classify(crops))
    taught = [Taught(code, crop_of(k)) for k, code in enumerate(("3B", "5B", "8B"))]
    profile = recogniser.learn("bars", taught)
    assert profile.codes == ("3B", "5B", "8B") and profile.taught == 3


def test_a_card_the_players_corrected_is_read_as_they_said_when_seen_again():
    """The classifier reads print 2 surely as the 8, a card the deck was never taught; the
    players corrected one such crop to the 5. Seen again (in another light), it reads as the 5;
    the other prints as before, and "not an index" keeps its probability."""
    read = stand_in({})
    taught = [
        Taught("3B", crop_of(0)),
        Taught("5B", crop_of(1)),
        Taught("5B", crop_of(2), corrected=True),
    ]
    profile = learn("blue", taught, CLASSES, read)
    assert len(profile.remembered) == 1
    logits, features = read(np.stack([crop_of(2, shade=20), crop_of(0, shade=20)]))
    assert [CLASSES[k] for k in logits.argmax(axis=1)] == ["8B", "3B"]
    before = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    adapted = profile.adapt(logits, features)
    assert [CLASSES[k] for k in adapted.argmax(axis=1)] == ["5B", "3B"]
    none = CLASSES.index("none")
    assert np.exp(adapted[:, none]) == pytest.approx(before[:, none], rel=1e-6)
    # taught the same crop without the players' word, the fit alone is no memory of it
    plain = learn("blue", [*taught[:2], Taught("5B", crop_of(2))], CLASSES, read)
    assert len(plain.remembered) == 0
