"""The playtest loop: what a run is asked (spec), its oracles, its background workers, the playthrough."""
