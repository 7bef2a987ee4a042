"""Border-Up's bots: a race model (speed, errors, human or perfect) in one spec."""
