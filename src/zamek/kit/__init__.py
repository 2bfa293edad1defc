"""What the two games share: one game protocol with its conformance check, one runner, chance sampling,
confidence intervals and the errors both raise. Neither game borrows from the other's files."""
