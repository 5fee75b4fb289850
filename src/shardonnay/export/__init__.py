"""Shardy's export passes: explicit reshards where shardings disagree, and each reshard as
collectives."""
