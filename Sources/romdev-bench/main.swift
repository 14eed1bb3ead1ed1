// `make bench`: prints figures for the care store, the sensor driver and fusion.
CareBench.run()
SensorBench.run()
FusionBench.run()
