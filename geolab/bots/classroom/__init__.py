"""Class GeoPower Double Choice bots: the batched discard policies and their tables (`policies`),
the equilibrium solver (`equilibrium`) and the registry (`registry`)."""
