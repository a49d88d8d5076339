package contractcmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/compiler"
)

// seqPoint is where a statement's code starts: a script offset and a
// source position.
type seqPoint struct {
	offset int
	doc    string
	line   int
}

// compiledSeqPoints lists the sequence points of compiled debug info.
func compiledSeqPoints(di *compiler.DebugInfo) []seqPoint {
	var res []seqPoint
	for _, m := range di.Methods {
		for _, p := range m.SeqPoints {
			if p.Document >= 0 && p.Document < len(di.Documents) {
				res = append(res, seqPoint{p.Opcode, di.Documents[p.Document], p.StartLine})
			}
		}
	}
	return res
}

// readSeqPoints reads the sequence points of a NeoDebugger debug info
// file ("offset[document]line:col-line:col" strings).
func readSeqPoints(path string) ([]seqPoint, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var di struct {
		Documents []string `json:"documents"`
		Methods   []struct {
			SeqPoints []string `json:"sequence-points"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(raw, &di); err != nil {
		return nil, err
	}
	var res []seqPoint
	for _, m := range di.Methods {
		for _, s := range m.SeqPoints {
			p, err := parseSeqPoint(s, di.Documents)
			if err != nil {
				return nil, err
			}
			res = append(res, p)
		}
	}
	return res, nil
}

// parseSeqPoint reads "offset[document]line:col-line:col"; the document
// is an index into docs or (in normalised files) a path.
func parseSeqPoint(s string, docs []string) (seqPoint, error) {
	bad := func(why string) (seqPoint, error) {
		return seqPoint{}, fmt.Errorf("sequence point %q: %s", s, why)
	}
	offText, rest, ok := strings.Cut(s, "[")
	if !ok {
		return bad("no document")
	}
	docText, span, ok := strings.Cut(rest, "]")
	if !ok {
		return bad("no document")
	}
	off, err := strconv.Atoi(offText)
	if err != nil {
		return bad("bad offset")
	}
	lineText, _, _ := strings.Cut(span, ":")
	line, err := strconv.Atoi(lineText)
	if err != nil {
		return bad("bad line")
	}
	doc := docText
	if i, err := strconv.Atoi(docText); err == nil {
		if i < 0 || i >= len(docs) {
			return bad("no such document")
		}
		doc = docs[i]
	}
	return seqPoint{off, doc, line}, nil
}

// debugSources returns the source line printer of pts: "; file:line:
// text" (the text trimmed; files that cannot be read give the position
// alone).
func debugSources(pts []seqPoint) sourceLines {
	byOffset := map[int]seqPoint{}
	for _, p := range pts {
		if _, ok := byOffset[p.offset]; !ok {
			byOffset[p.offset] = p
		}
	}
	files := map[string][]string{}
	return func(off int) string {
		p, ok := byOffset[off]
		if !ok {
			return ""
		}
		lines, ok := files[p.doc]
		if !ok {
			if data, err := os.ReadFile(p.doc); err == nil {
				lines = strings.Split(string(data), "\n")
			}
			files[p.doc] = lines
		}
		pos := fmt.Sprintf("; %s:%d", filepath.Base(p.doc), p.line)
		if p.line >= 1 && p.line <= len(lines) {
			return pos + ": " + strings.TrimSpace(lines[p.line-1])
		}
		return pos
	}
}

// sourceLines gives, for a script offset, the source line to print before
// the instruction there (empty: none).
type sourceLines func(offset int) string
