"""The rules of Rycerze i zamki, pure (no I/O, no global randomness): ``engine`` (the state and its flow),
``cards`` (the card model and the strength table's loader), ``actions`` (their notation), ``knowledge`` (what
open information tells about hidden hands, K8) and ``match`` (several games, K7)."""
