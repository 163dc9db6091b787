-- The game never ends by its rules: no one is ever over.
return {
  game_over = function(t, totals)
    return false
  end,
}
