"""Finding the rules a command names: a preset (``pagat``, ``brouillette:low``) or a house-rules
TOML file."""

from __future__ import annotations

from pathlib import Path

from engine import PRESETS, RulesError, RuleSet, get_preset, rules_from_toml


def load_rules(spec: str, *, relative_to: Path | None = None) -> RuleSet:
    """``spec`` is a preset name or a path to a house-rules file; a relative path is looked up
    next to ``relative_to`` (the deal file that names it) when it is not found as given."""
    if not _looks_like_file(spec):
        return get_preset(spec)
    path = Path(spec).expanduser()
    if not path.exists() and relative_to is not None and not path.is_absolute():
        path = relative_to / path
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RulesError(
            f"no preset or rules file named {spec!r} (presets: {', '.join(PRESETS)})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(f"cannot read the rules file ({_reason(error)})", source=spec) from None
    return rules_from_toml(text, source=spec)


def _looks_like_file(spec: str) -> bool:
    name = spec.strip().lower().partition(":")[0]
    return name not in PRESETS and name.removesuffix("-low") not in PRESETS


def _reason(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return getattr(error, "strerror", None) or str(error)
