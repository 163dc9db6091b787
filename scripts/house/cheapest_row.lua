-- A card lower than every row takes the cheapest row (fewest bullheads; on a tie, the first):
-- nobody is asked. Rows are numbered from 0, and t.rows[i] is row i - 1.
return {
  low_card = function(t, seat, card)
    local best, best_cost
    for i, row in ipairs(t.rows) do
      local cost = 0
      for _, c in ipairs(row) do
        cost = cost + t.bullheads(c)
      end
      if best_cost == nil or cost < best_cost then
        best, best_cost = i - 1, cost
      end
    end
    return best
  end,
}
