"""``zanzibar rules GAME [--preset P] [--option NAME=VALUE ...] [--lang en|fr]``."""

from __future__ import annotations

from zanzibar.cli.main import make_parser
from zanzibar.engine.i18n import LANGUAGES
from zanzibar.games import get_rules


def main(argv: list[str]) -> int:
    """Print the rules in force for a game with a preset and options."""
    parser = make_parser("rules", "Print a game's rules, with the sources of each rule.")
    parser.add_argument("game")
    parser.add_argument("--preset")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--options-only", action="store_true", help="list the options and presets")
    args = parser.parse_args(argv)
    rules = get_rules(args.game)
    if args.options_only:
        for spec in rules.options.specs:
            print(f"{spec.name} = {spec.default!r}: {spec.description.get(args.lang, '')}")
        for preset in rules.options.presets:
            print(f"preset {preset.name}: {preset.description.get(args.lang, '')}")
        return 0
    options = rules.options.resolve(args.preset, rules.options.parse_assignments(args.option))
    print(rules.rules_text(args.lang, options))
    return 0
