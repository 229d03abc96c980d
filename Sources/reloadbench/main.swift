print("reloadbench")
