-- The circle game with stronger special cards: "+5" is worth 10, "x2" triples, and a special
-- card left in hand costs 20. Two players get 10 cards each and 5 table cards.
return {
  plus5_points = 10,
  x2_multiplier = 3,
  held_penalty = 20,
  deal = { [2] = { hand_size = 10, rows = 5 } },
}
