-- Five rows on the table instead of four.
-- Ten players with ten cards each and five rows would need 105 cards; the deck has 104,
-- so at most nine players.
return {
  rows = 5,
  max_players = 9,
}
