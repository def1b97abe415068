import { Mongoose, Schema } from 'mongoose';
import { requiredFields } from './required-fields';

describe('requiredFields', () => {
  it('makes every field required, whether given by type or by options, and keeps the options', () => {
    const fields = requiredFields({ name: String, count: Number, role: { type: String, enum: ['user', 'admin'] } });
    expect(fields).toEqual({
      name: { type: String, required: true },
      count: { type: Number, required: true },
      role: { type: String, enum: ['user', 'admin'], required: true },
    });
  });

  it('gives a schema that refuses a document missing one of them or with a bad enum value, and leaves the fields beside it optional', () => {
    const schema = new Schema({ ...requiredFields({ name: String, role: { type: String, enum: ['user', 'admin'] } }), note: String });
    const Thing = new Mongoose().model('Thing', schema);
    const errorsOf = (doc: object) => Object.keys(new Thing(doc).validateSync()?.errors ?? {}).sort();
    expect(errorsOf({ name: 'a', role: 'user' })).toEqual([]);
    expect(errorsOf({ note: 'n' })).toEqual(['name', 'role']);
    expect(errorsOf({ name: 'a', role: 'root' })).toEqual(['role']);
  });
});
