-- A longer game: it ends after the round in which someone reaches 100 bullheads.
return {
  target_score = 100,
}
