"""Computer players: one interface, several strengths."""
