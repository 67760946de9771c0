# errors: see docs/l10n.md (ids start with "errors-")
error-seat-taken = la place { $seat } est prise
