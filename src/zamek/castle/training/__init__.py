"""Training the computer players' estimates: ``fit_value`` fits the learned value (``zamek train-value``),
``train_net`` trains the value network (``zamek train``). Above the bots and the arena, which measure them."""
