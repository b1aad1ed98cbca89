//! Record batches handed to pyarrow without a copy, through the Arrow PyCapsule interface
//! (`__arrow_c_array__`, `__arrow_c_stream__`, `__arrow_c_schema__`): pyarrow, polars and
//! DuckDB import the buffers the extension allocated, where an IPC stream would serialize
//! every column and copy it back.

use std::ffi::CString;

use std::sync::Mutex;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator, StructArray};
use arrow_schema::SchemaRef;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::errors::{raise, ChessbitsError};

/// An Arrow C data interface struct owned by a capsule until pyarrow moves it out (which
/// leaves its `release` null, so dropping it then releases nothing).
#[repr(transparent)]
struct Owned<T>(T);

// SAFETY: the structs hold pointers to buffers that arrow-rs shares through `Arc`s (Send and
// Sync) and a private data box that only their `release` callback touches; the C data
// interface allows releasing a struct on any thread, and the capsule is the only owner.
unsafe impl<T> Send for Owned<T> {}

/// A capsule named `name` that owns `value`; its pointer is the value's address.
fn capsule<'py, T: 'static>(
    py: Python<'py>,
    value: T,
    name: &str,
) -> PyResult<Bound<'py, PyCapsule>> {
    let name = CString::new(name).map_err(raise::<ChessbitsError>)?;
    PyCapsule::new(py, Owned(value), Some(name))
}

/// `schema` as an `arrow_schema` capsule: a struct type with the fields and metadata.
fn schema_capsule<'py>(py: Python<'py>, schema: &SchemaRef) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema.as_ref()).map_err(raise::<ChessbitsError>)?;
    capsule(py, ffi, "arrow_schema")
}

/// One record batch, for `pyarrow.record_batch(batch)`.
#[pyclass(module = "chessbits", frozen)]
pub(crate) struct ArrowBatch {
    batch: RecordBatch,
}

impl ArrowBatch {
    pub(crate) fn new(batch: RecordBatch) -> ArrowBatch {
        ArrowBatch { batch }
    }
}

#[pymethods]
impl ArrowBatch {
    /// The batch as an `(arrow_schema, arrow_array)` pair of capsules: a struct array whose
    /// children are the columns, sharing their buffers.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        // The schema is the batch's own; a consumer that asks for another casts itself.
        let _ = requested_schema;
        let data = StructArray::from(self.batch.clone()).into_data();
        let schema = schema_capsule(py, &self.batch.schema())?;
        Ok((schema, capsule(py, FFI_ArrowArray::new(&data), "arrow_array")?))
    }

    /// The number of rows.
    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }

    /// The address of the first data buffer of column `index` (for the test that checks that
    /// pyarrow reads the buffers allocated here, not copies).
    fn _buffer_address(&self, index: usize) -> Option<usize> {
        let column = self.batch.columns().get(index)?;
        let data = column.to_data();
        data.buffers().first().map(|b| b.as_ptr() as usize)
    }
}

/// A schema, for `pyarrow.schema(schema)` (the schema of a table with no batch).
#[pyclass(module = "chessbits", frozen)]
pub(crate) struct ArrowSchema {
    schema: SchemaRef,
}

impl ArrowSchema {
    pub(crate) fn new(schema: SchemaRef) -> ArrowSchema {
        ArrowSchema { schema }
    }
}

#[pymethods]
impl ArrowSchema {
    /// The schema as an `arrow_schema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }
}

/// Record batches of one schema, for `pyarrow.RecordBatchReader.from_stream(stream)`: a
/// table's batches cross in one call, imported by pyarrow's C++, where a Python object a
/// batch (`pyarrow.record_batch`) cost about 70 microseconds each (0.60 ms for the 8
/// batches two threads make of a 1 MB file, against 0.14 ms for one). The batches can be
/// taken once.
#[pyclass(module = "chessbits", frozen)]
pub(crate) struct ArrowStream {
    schema: SchemaRef,
    batches: Mutex<Option<Vec<RecordBatch>>>,
}

impl ArrowStream {
    pub(crate) fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> ArrowStream {
        ArrowStream { schema, batches: Mutex::new(Some(batches)) }
    }
}

#[pymethods]
impl ArrowStream {
    /// The batches as an `arrow_array_stream` capsule; a second call is an error.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is the stream's own; a consumer that asks for another casts itself.
        let _ = requested_schema;
        let batches = self
            .batches
            .lock()
            .map_err(|_| ChessbitsError::new_err("the stream's lock was poisoned"))?
            .take()
            .ok_or_else(|| ChessbitsError::new_err("the stream was already taken"))?;
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), self.schema.clone());
        capsule(py, FFI_ArrowArrayStream::new(Box::new(reader)), "arrow_array_stream")
    }

    /// The schema as an `arrow_schema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }
}
