# ID diam omega tref alpha (dsmc's argon, VHS)
Ar   4.17e-10 0.81  273  1.0
