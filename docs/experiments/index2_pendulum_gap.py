import sys, warnings
sys.path.insert(0, "tests/exudyn")
import numpy as np
import exudyn as exu
import floatframe.exudyn as ffexu
from test_exudyn_solve import solve, NEWMARK, GA
from exudyn_style_models import pendulum
for case,(fields,st) in {"trap":((),"TrapezoidalIndex2"), "nm2":(NEWMARK+((GA+"useIndex2Constraints",True),),None), "nm3":(NEWMARK,None)}.items():
    r = solve(exu, pendulum, fields, st); o = solve(ffexu, pendulum, fields, st)
    s = np.abs(r).max()
    print(case, np.abs(r-o).max()/s)
