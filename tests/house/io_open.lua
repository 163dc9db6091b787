-- Tries to read a file, from a hook.
return {
  low_card = function(t, seat, card)
    local f = io.open("/etc/passwd")
    return 0
  end,
}
