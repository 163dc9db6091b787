-- The Pro draft from a wider pool: 12 cards per player and 4 more (1-28 for two players, 1-52
-- for four). The hands still hold 10; the 4 lowest cards left start the rows and the others
-- are out of the round.
return {
  pro_deck = { per_player = 12, extra = 4 },
}
