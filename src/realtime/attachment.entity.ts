import { defineEntity, p } from '@mikro-orm/core';

/**
 * The Socket.IO Postgres adapter's table for cluster messages over NOTIFY's 8000-byte limit.
 * The adapter reads and writes it; declaring it here lets migrations own its schema.
 */
export const SocketIoAttachmentSchema = defineEntity({
  name: 'SocketIoAttachment',
  tableName: 'socket_io_attachments',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    createdAt: p.datetime().defaultRaw('now()').nullable(),
    payload: p.blob().nullable(),
  },
});

export class SocketIoAttachment extends SocketIoAttachmentSchema.class {}
SocketIoAttachmentSchema.setClass(SocketIoAttachment);
