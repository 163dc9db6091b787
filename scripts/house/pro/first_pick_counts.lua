-- Your first pick of each draft counts against you: its bullheads are added to your penalty at
-- the end of the round. `t.hand` is the picker's own hand, the card just picked included.
local first = {}
return {
  draft_pick = function(t, seat, card, pool)
    if #t.hand == 1 then
      first[seat] = card
    end
  end,
  round_end = function(t, penalties)
    for seat = 0, t.seats - 1 do
      if first[seat] then
        penalties[seat + 1] = penalties[seat + 1] + t.bullheads(first[seat])
      end
    end
    first = {}
  end,
}
