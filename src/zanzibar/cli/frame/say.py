"""The terminal frame's sentences: messages ``cli-*`` of the one catalogue (``l10n/*/cli.ftl``).

Every word the terminal says of its own (help, key names, command words,
the frame's refusals) is a message, so a third language is new files. This
module only adds attribute access (command words keep their help in
``.help`` and extra words in ``.also``) to :class:`zanzibar.l10n.Voice`.
"""

from __future__ import annotations

from typing import Any

from zanzibar.l10n import L10nError, Voice, is_strict


def say(lang: str, msg_id: str, **args: Any) -> str:
    """The sentence ``msg_id`` in ``lang`` with ``args`` filled in."""
    return Voice(lang).text(msg_id, **args)


def attribute(lang: str, msg_id: str, name: str, **args: Any) -> str | None:
    """The attribute ``.name`` of a message, or None when it has none."""
    voice = Voice(lang)
    bundle = voice.catalogue.bundle(voice.lang)
    if not bundle.has_message(msg_id):
        if is_strict():
            raise L10nError(f"message {msg_id!r} is missing in {lang!r}")
        return None
    message = bundle.get_message(msg_id)
    if name not in message.attributes:
        return None
    text, errors = bundle.format_pattern(message.attributes[name], args)
    if errors and is_strict():
        raise L10nError(f"{lang} {msg_id}.{name}: {errors}")
    return str(text)
