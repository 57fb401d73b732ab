"""Stage ``faces``: cards read again with their faces where these lie in view
(``vision/faces.py``); as they are without a face reader, or with the rule ``faces`` off."""

from __future__ import annotations

from dataclasses import replace

from scanner.vision.faces import face_images, face_outline, faces_to_read, with_face
from scanner.vision.networks import softmax
from scanner.vision.preprocess import normalise
from scanner.vision.stages.records import FrameContext, Work

NAME = "faces"


def run(context: FrameContext, work: Work) -> Work:
    cards = work.cards
    readable = context.options.faces and context.nets.face is not None
    wanted = faces_to_read(cards) if readable else []
    if not wanted:
        return work
    c = context.contract
    images = face_images(work.image, [face_outline(cards[n]) for n in wanted])
    faces = softmax(context.nets.faces(normalise(images, c)))
    none = list(c.classes).index(c.not_an_index)
    read = list(cards)
    for n, face in zip(wanted, faces, strict=True):
        read[n] = with_face(cards[n], face, c.classes, none, c.min_confidence)
    return replace(work, cards=tuple(read))
