"""What a gate process lives with: stop signals, the wall-clock budget of judging, its shard of a CI matrix, and values made once per object."""
