package consensus

import (
	"context"
	"log/slog"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// newZapLogger returns a zap logger that writes through h: dbft v0.4.0
// logs with zap, the node with log/slog. Fields become attributes with the
// same names; zap's Debug/Info/Warn/Error map to the slog levels of the
// same name and DPanic/Panic/Fatal to Error. Fatal does not end the
// process: dbft logs Fatal only when ProcessBlock fails, which ours never
// does, and a library must not exit the node.
func newZapLogger(h slog.Handler) *zap.Logger {
	return zap.New(&slogCore{h: h}, zap.WithFatalHook(noExit{}))
}

type noExit struct{}

func (noExit) OnWrite(*zapcore.CheckedEntry, []zapcore.Field) {}

// slogCore is a zapcore.Core that forwards entries to a slog.Handler.
type slogCore struct {
	h slog.Handler
}

func slogLevel(l zapcore.Level) slog.Level {
	switch {
	case l <= zapcore.DebugLevel:
		return slog.LevelDebug
	case l == zapcore.InfoLevel:
		return slog.LevelInfo
	case l == zapcore.WarnLevel:
		return slog.LevelWarn
	default:
		return slog.LevelError
	}
}

func (c *slogCore) Enabled(l zapcore.Level) bool {
	return c.h.Enabled(context.Background(), slogLevel(l))
}

func (c *slogCore) With(fs []zapcore.Field) zapcore.Core {
	if len(fs) == 0 {
		return c
	}
	return &slogCore{h: c.h.WithAttrs(attrs(fs))}
}

func (c *slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c *slogCore) Write(e zapcore.Entry, fs []zapcore.Field) error {
	r := slog.NewRecord(e.Time, slogLevel(e.Level), e.Message, 0)
	r.AddAttrs(attrs(fs)...)
	return c.h.Handle(context.Background(), r)
}

func (c *slogCore) Sync() error { return nil }

// attrs converts zap fields with zap's own map encoder, keeping the order.
func attrs(fs []zapcore.Field) []slog.Attr {
	as := make([]slog.Attr, 0, len(fs))
	for _, f := range fs {
		enc := zapcore.NewMapObjectEncoder()
		f.AddTo(enc)
		for k, v := range enc.Fields {
			as = append(as, slog.Any(k, v))
		}
	}
	return as
}
