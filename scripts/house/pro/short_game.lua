-- A shorter Pro game: eight cards each (the deck is cut to players x 8 + 4 cards) and three
-- rounds, whatever the scores.
return {
  hand_size = 8,
  rounds = 3,
}
