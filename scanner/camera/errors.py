"""The errors a frame source raises. Each message is one plain sentence a player can act on,
and names the source (its spec, as given to ``--camera``)."""

from __future__ import annotations


class CameraError(Exception):
    """A source that cannot be opened or stopped giving pictures. ``source`` is the spec of
    the source (``"webcam:0"``, ``"files:photos/"`` …), ``None`` only when there is none yet."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        self.source = source
        super().__init__(message)


class BadSpecError(CameraError):
    """A ``--camera`` value that names no source, or an option a source does not take."""

    def __init__(self, message: str, *, spec: str) -> None:
        self.spec = spec
        super().__init__(message, source=spec)
