"""Configuration of pytest-playtest's own test suite (not needed by users of the plugin)."""

pytest_plugins = ["pytester"]
