-- Special cards are not free: each one a player plays (Negative = Positive included), and each
-- one given away in a swap, costs that player 1 point at the end of the round.
local used = {}
return {
  special_played = function(t, seat, special, card)
    used[seat] = (used[seat] or 0) + 1
  end,
  swap = function(t, seat, gave, drew)
    used[seat] = (used[seat] or 0) + 1
  end,
  round_end = function(t, penalties)
    for seat = 0, t.seats - 1 do
      penalties[seat + 1] = penalties[seat + 1] + (used[seat] or 0)
    end
    used = {}
  end,
}
