-- Shoot the moon: a player who takes every bullhead of a round scores 0 for it, and everyone
-- else scores what that player took.
return {
  round_end = function(t, penalties)
    local total = 0
    for _, p in ipairs(penalties) do
      total = total + p
    end
    if total == 0 then
      return nil
    end
    for i, p in ipairs(penalties) do
      if p == total then
        local moon = {}
        for j = 1, #penalties do
          moon[j] = (j == i) and 0 or total
        end
        return moon
      end
    end
    return nil -- nobody shot the moon: the penalties stand
  end,
}
