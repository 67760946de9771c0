# chess: see docs/l10n.md (ids start with "chess-")
