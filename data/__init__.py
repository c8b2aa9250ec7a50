"""The game's static data, installed as the package ``petersburg_data`` (pyproject.toml maps it to this folder):
the card catalogue, the expansions' and modules' files, the translations and the fonts. Read it through
``importlib.resources`` (``rules.cards.DATA_DIR``), which works from a checkout, an installed wheel and a zip."""
