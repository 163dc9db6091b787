-- The Pro variant drafted there and back: seat 0 to the last seat, then the last seat back to
-- seat 0 (the last seat picks twice in a row at each turn of the snake).
return {
  draft = "snake",
}
