# errors: see docs/l10n.md (ids start with "errors-")
error-seat-taken = seat { $seat } is taken
