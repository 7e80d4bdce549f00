package trainsize

/*
#include <stdlib.h>
#include "trainsize.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Checkpoint is what a checkpoint's safetensors headers list (trainsize_checkpoint).
type Checkpoint struct {
	Parameters uint64 // elements of every tensor, summed (exact)
	Bytes      uint64 // the tensors' data as stored, bytes
	Tensors    uint64 // tensors the headers list
	Files      uint32 // safetensors files whose headers were read
	DType      string // the dtype holding the most elements ("BF16", "F32", ...; "" when none)
	// What the job's model shape describes, and what the headers hold beyond it: the job's
	// "extra-params" (both 0 from ReadCheckpoint; the second 0 too when they hold fewer).
	ConfigParameters uint64
	ExtraParameters  uint64
	// The tensors by name prefix, the most parameters first (at most 16; the last,
	// "(other)", sums the rest).
	Groups []CheckpointGroup
}

// CheckpointGroup is a checkpoint's tensors that share a name prefix
// (trainsize_checkpoint_group): the name up to its first numeric component, written "#"
// ("model.layers.#"), else the name without its last component ("model.embed_tokens").
type CheckpointGroup struct {
	Name       string // the prefix; "(other)" for the groups past the table
	Parameters uint64 // elements of its tensors, summed (exact)
	Tensors    uint64 // its tensors
	Layers     uint64 // with "#": its largest index + 1; else 0
	// Of Parameters, those the job's shape does not explain (0 from ReadCheckpoint); the
	// groups' add up to ExtraParameters.
	Unexplained uint64
}

// HoldsFewer reports whether the headers hold fewer parameters than the job's shape
// describes (a quantized checkpoint packs several values in one element): the shape's
// count is then used. The command says so on standard error; a caller may say it too.
func (c Checkpoint) HoldsFewer() bool { return c.Parameters < c.ConfigParameters }

func checkpointOf(ck *C.trainsize_checkpoint) Checkpoint {
	used := int(ck.group_count)
	if used > len(ck.groups) {
		used = len(ck.groups)
	}
	groups := make([]CheckpointGroup, used)
	for i := range groups {
		g := &ck.groups[i]
		groups[i] = CheckpointGroup{Name: goStr(g.name[:]), Parameters: uint64(g.parameters),
			Tensors: uint64(g.tensors), Layers: uint64(g.layers), Unexplained: uint64(g.unexplained)}
	}
	return Checkpoint{
		Parameters: uint64(ck.parameters), Bytes: uint64(ck.bytes), Tensors: uint64(ck.tensors),
		Files: uint32(ck.files), DType: goStr(ck.dtype[:]),
		ConfigParameters: uint64(ck.config_parameters), ExtraParameters: uint64(ck.extra_parameters),
		Groups: groups,
	}
}

// readCheckpoint is trainsize_checkpoint_read of path into ck.
func readCheckpoint(path string, ck *C.trainsize_checkpoint) error {
	cpath, err := cString(path, "safetensors", "path")
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cpath))
	var e C.trainsize_error
	if rc := C.trainsize_checkpoint_read(cpath, ck, &e); rc != C.TRAINSIZE_OK {
		return libError(rc, &e)
	}
	return nil
}

// ReadCheckpoint counts a checkpoint's parameters from its safetensors headers, never its
// data: path is a .safetensors file, a model.safetensors.index.json (every shard it names
// is read) or a folder holding either.
func ReadCheckpoint(path string) (Checkpoint, error) {
	var ck C.trainsize_checkpoint
	if err := readCheckpoint(path, &ck); err != nil {
		return Checkpoint{}, err
	}
	return checkpointOf(&ck), nil
}

// LoadCheckpoint loads a model from a checkpoint folder, as the command's --safetensors DIR
// (and, on a cached snapshot, --hf-model): its config.json is the model's shape, named
// name when it is not "" (a Hub id), and its safetensors headers count the parameters,
// winning where they hold more (the difference becomes "extra-params"). Load the model
// this way first: settings set afterwards (a shape override) win over it. On failure the
// job is unchanged.
func (j *Job) LoadCheckpoint(dir, name string) (Checkpoint, error) {
	p, err := j.handle()
	if err != nil {
		return Checkpoint{}, err
	}
	cdir, err := cString(dir, "safetensors", "folder")
	if err != nil {
		return Checkpoint{}, err
	}
	defer C.free(unsafe.Pointer(cdir))
	var cname *C.char
	if name != "" {
		if cname, err = cString(name, "safetensors", "model's name"); err != nil {
			return Checkpoint{}, err
		}
		defer C.free(unsafe.Pointer(cname))
	}
	var ck C.trainsize_checkpoint
	var e C.trainsize_error
	rc := C.trainsize_job_load_checkpoint(p, cdir, cname, &ck, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return Checkpoint{}, libError(rc, &e)
	}
	return checkpointOf(&ck), nil
}

// SetCheckpointFrom counts a checkpoint's parameters against the job's model (set first: a
// preset, a config.json), as the command's --safetensors PATH with --model or --hf-config:
// path is a .safetensors file, a model.safetensors.index.json or a folder holding either.
// Where the headers hold more than the shape describes, the difference becomes
// "extra-params"; where fewer (HoldsFewer), the shape's count stays. On failure the job is
// unchanged.
func (j *Job) SetCheckpointFrom(path string) (Checkpoint, error) {
	p, err := j.handle()
	if err != nil {
		return Checkpoint{}, err
	}
	var ck C.trainsize_checkpoint
	if err := readCheckpoint(path, &ck); err != nil {
		return Checkpoint{}, err
	}
	var e C.trainsize_error
	rc := C.trainsize_job_set_checkpoint(p, &ck, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return Checkpoint{}, libError(rc, &e)
	}
	return checkpointOf(&ck), nil
}

// HFHubCache is the Hugging Face hub cache folder, as huggingface_hub finds it:
// $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else
// $XDG_CACHE_HOME/huggingface/hub, else $HOME/.cache/huggingface/hub; ok is false when none
// of them is set.
func HFHubCache() (dir string, ok bool) {
	buf := make([]byte, 512)
	for {
		n := int(C.trainsize_hf_hub_cache((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf))))
		if n < 0 {
			return "", false
		}
		if n < len(buf) {
			return string(buf[:n]), true
		}
		buf = make([]byte, n+1) // snprintf-style: the length it needs
	}
}

// HFSnapshot is the snapshot folder of a model in the usual Hugging Face cache
// (HFHubCache), as the command's --hf-model ID --revision REV finds it: id is "ORG/NAME"
// or "NAME", revision a branch, tag or 40-hex commit id ("" for "main"). No network: a
// model not in the cache is an *Error naming the id and the folder searched.
// Job.LoadCheckpoint loads the folder.
func HFSnapshot(id, revision string) (string, error) {
	cache, ok := HFHubCache()
	if !ok {
		return "", &Error{Code: ErrUnknown, Field: "hf-model",
			Message: "hf-model: no Hugging Face cache to search: set HF_HUB_CACHE, HF_HOME or HOME"}
	}
	return HFSnapshotIn(cache, id, revision)
}

// HFSnapshotIn is HFSnapshot in a given hub cache folder, the environment left unread.
func HFSnapshotIn(hubCache, id, revision string) (string, error) {
	ccache, err := cString(hubCache, "hf-model", "cache folder")
	if err != nil {
		return "", err
	}
	defer C.free(unsafe.Pointer(ccache))
	cid, err := cString(id, "hf-model", "id")
	if err != nil {
		return "", err
	}
	defer C.free(unsafe.Pointer(cid))
	var crev *C.char
	if revision != "" {
		if crev, err = cString(revision, "hf-model", "revision"); err != nil {
			return "", err
		}
		defer C.free(unsafe.Pointer(crev))
	}
	// The cache, models--ORG--NAME (two parts of at most 96 bytes) and snapshots/COMMIT.
	buf := make([]C.char, len(hubCache)+512)
	var e C.trainsize_error
	if rc := C.trainsize_hf_snapshot(ccache, cid, crev, &buf[0], C.size_t(len(buf)), &e); rc != C.TRAINSIZE_OK {
		return "", libError(rc, &e)
	}
	return goStr(buf), nil
}
