package options

// field reads and writes one script field of a Scenario. set converts the
// exported JavaScript value and reports problems located at path; get
// returns the value for InspectJSON, which leaves the field out when omit
// (if any) says so.
type field struct {
	set  func(sc *Scenario, path string, v any) error
	get  func(sc *Scenario) any
	omit func(sc *Scenario) bool
}

// omitWhen returns f leaving the field out of InspectJSON when hide says so.
func (f field) omitWhen(hide func(sc *Scenario) bool) field {
	f.omit = hide
	return f
}

// makeField builds a field from a conversion and an accessor.
func makeField[T any](conv func(any) (T, error), p func(*Scenario) *T) field {
	return field{
		set: func(sc *Scenario, path string, v any) error {
			x, err := conv(v)
			if err == nil {
				*p(sc) = x
			}
			return at(path, err)
		},
		get: func(sc *Scenario) any { return *p(sc) },
	}
}

// scenarioFields maps every scenario field name a script may use, across
// all executors, to its accessor. "executor" is read before the others.
var scenarioFields = map[string]field{
	"executor":        makeField(toString, func(sc *Scenario) *string { return &sc.Executor }),
	"startTime":       makeField(toDuration, func(sc *Scenario) *Duration { return &sc.StartTime }),
	"gracefulStop":    makeField(toDuration, func(sc *Scenario) *Duration { return &sc.GracefulStop }).omitWhen(hideGracefulStop),
	"env":             makeField(toStringMap, func(sc *Scenario) *map[string]string { return &sc.Env }),
	"exec":            makeField(toString, func(sc *Scenario) *string { return &sc.Exec }),
	"tags":            makeField(toStringMap, func(sc *Scenario) *map[string]string { return &sc.Tags }),
	"options":         browserField,
	"vus":             makeField(toInt, func(sc *Scenario) *int64 { return &sc.VUs }),
	"iterations":      makeField(toInt, func(sc *Scenario) *int64 { return &sc.Iterations }),
	"duration":        makeField(toDuration, func(sc *Scenario) *Duration { return &sc.Duration }),
	"maxDuration":     makeField(toDuration, func(sc *Scenario) *Duration { return &sc.MaxDuration }),
	"rate":            makeField(toInt, func(sc *Scenario) *int64 { return &sc.Rate }),
	"startRate":       makeField(toInt, func(sc *Scenario) *int64 { return &sc.StartRate }),
	"timeUnit":        makeField(toDuration, func(sc *Scenario) *Duration { return &sc.TimeUnit }),
	"preAllocatedVUs": makeField(toInt, func(sc *Scenario) *int64 { return &sc.PreAllocatedVUs }),
	"maxVUs":          makeField(toInt, func(sc *Scenario) *int64 { return &sc.MaxVUs }),
	"startVUs":        makeField(toInt, func(sc *Scenario) *int64 { return &sc.StartVUs }),
	"stages": {
		set: func(sc *Scenario, path string, v any) (err error) {
			sc.Stages, err = parseStageList(path, v)
			return err
		},
		get: func(sc *Scenario) any { return sc.Stages },
	},
	"gracefulRampDown": makeField(toDuration, func(sc *Scenario) *Duration { return &sc.GracefulRampDown }),
	"arrival":          makeField(toArrival, func(sc *Scenario) *string { return &sc.Arrival }).omitWhen(hideArrival),
	"arrivalSeed":      makeField(toInt, func(sc *Scenario) *int64 { return &sc.ArrivalSeed }).omitWhen(hideArrival),
	"file":             makeField(toString, func(sc *Scenario) *string { return &sc.File }),
	"format": field{ // inspect shows the format the extension tells
		set: makeField(toTraceFormat, func(sc *Scenario) *string { return &sc.Format }).set,
		get: func(sc *Scenario) any { return sc.TraceFormat() },
	},
	"speed":          makeField(toSpeed, func(sc *Scenario) *float64 { return &sc.Speed }),
	"timestampField": makeField(toString, func(sc *Scenario) *string { return &sc.TimestampField }),
	"burstiness": field{
		set: makeField(toBurstiness, func(sc *Scenario) *float64 { return &sc.Burstiness }).set,
		get: func(sc *Scenario) any { return sc.ArrivalShape() },
	}.omitWhen(hideBurstiness),
}
