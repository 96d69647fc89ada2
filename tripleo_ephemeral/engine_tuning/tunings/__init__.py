"""The engine tunings, a module (or a package) per tuning."""
