// `make bench`: prints figures for the care store, the sensor driver, the sampling loop and fusion.
CareBench.run()
SensorBench.run()
SamplingBench.run()
FusionBench.run()
