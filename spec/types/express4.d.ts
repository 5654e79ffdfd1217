/** `express4` is Express 4 installed under an alias so the suite runs on both majors; same API shape. */
declare module 'express4' {
  import express from 'express';
  export default express;
}
