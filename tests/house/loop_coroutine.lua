-- An endless loop inside a coroutine (coroutine.wrap) called from a hook.
return {
  round_end = function(t, penalties)
    local spin = coroutine.wrap(function()
      while true do
      end
    end)
    spin()
  end,
}
