"""Les Toits de Paris: scenarios (spec §9), decisions D1-D34, invariants and interface."""
