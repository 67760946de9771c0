# dice421: see docs/l10n.md (ids start with "dice421-")
