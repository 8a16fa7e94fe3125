"""Sessions, the action journal, recording and publication, and the daemon that holds them."""
